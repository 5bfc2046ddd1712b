/**
 * The case studies (examples, each one of the product's live demo maps) as the landing page and
 * the other case studies link to them: the path, the card's title and picture. Apart from the pages themselves (case-studies.tsx, loaded with the
 * route), so the landing page carries only these lines.
 */
import { assetImageSources } from '../../components/ui/asset-image';
import { paths } from '../../lib/paths';

export type CaseStudyKey = 'real-estate' | 'retail' | 'geographic';

export interface CaseStudyCard {
  key: CaseStudyKey;
  path: string;
  /** The picture of the map for link cards (client/public/assets/img/{image}.webp and @2x). */
  image: string;
  /** The link card's title. */
  cardTitle: string;
}

export const CASE_STUDY_CARDS: Record<CaseStudyKey, CaseStudyCard> = {
  'real-estate': { key: 'real-estate', path: paths.caseStudyRealEstate, image: 'case-real-estate', cardTitle: 'Real estate: a site plan with every unit’s status' },
  retail: { key: 'retail', path: paths.caseStudyRetail, image: 'case-retail', cardTitle: 'Retail: a two-floor mall directory' },
  geographic: { key: 'geographic', path: paths.caseStudyGeographic, image: 'case-geographic', cardTitle: 'Geographic: service territories and offices' },
};

export const CASE_STUDY_ORDER: CaseStudyKey[] = ['real-estate', 'retail', 'geographic'];

/** A case study's link card picture, with its double-resolution copy. */
export function caseStudyImage(study: CaseStudyCard) {
  const { src } = assetImageSources(study.image, 'webp');
  return { image: src, image2x: assetImageSources(`${study.image}@2x`, 'webp').src };
}
