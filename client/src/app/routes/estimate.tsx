/** /estimate (spec §2). */
import { ButtonLink } from '../../components/ui/button';
import { SimplePage } from '../../features/marketing/components/simple-page';
import { paths } from '../paths';

export const EstimatePage = () => (
  <SimplePage
    eyebrow="Estimate"
    title="Estimate your project"
    lead="Need a map built for you? Tell us about your space and we will send a fixed-price estimate within two business days."
    actions={<ButtonLink to={paths.contact}>Request an estimate</ButtonLink>}
  >
    <p>
      Useful details: the kind of place, how many floors or areas, roughly how many locations, whether you need wayfinding, and where the
      map will be published. Plans in PDF, DWG or image form are all fine.
    </p>
  </SimplePage>
);

