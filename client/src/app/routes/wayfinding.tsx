/** The wayfinding offering (spec §2). */
import { ButtonLink } from '../../components/ui/button';
import { SimplePage } from '../../features/marketing/components/simple-page';
import { paths } from '../paths';

const startActions = (
  <>
    <ButtonLink to={paths.register}>Start for free</ButtonLink>
    <ButtonLink to={paths.contact} variant="secondary">
      Talk to us
    </ButtonLink>
  </>
);

export const WayfindingPage = () => (
  <SimplePage
    eyebrow="Wayfinding"
    title="Get people where they are going"
    lead="Routes between any two locations across floors and buildings, for hospitals, campuses, airports and venues."
    actions={startActions}
  >
    <p>
      Draw the paths once; Mapfold works out the way from the entrance to the room, including lifts and stairs between floors. Visitors
      follow the route on their phone, and your front desk answers fewer questions.
    </p>
  </SimplePage>
);

