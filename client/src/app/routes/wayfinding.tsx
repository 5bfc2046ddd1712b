/** /wayfinding (spec §2): the wayfinding offering for hospitals, campuses, airports, venues and malls. */
import {
  WayfindingCallToAction,
  WayfindingChannels,
  WayfindingFeatures,
  WayfindingHero,
  WayfindingPlaces,
  WayfindingSteps,
} from '../../features/marketing/components/wayfinding-sections';
import { WayfindingLiveDemo } from '../../features/marketing/components/wayfinding-live-demo';
import '../../features/marketing/components/marketing.css';
import { PageDescription } from '../../features/marketing/components/page-description';

export function WayfindingPage() {
  return (
    <div className="wayfinding-page">
      <title>Indoor wayfinding · Mapfold</title>
      <PageDescription content="Indoor wayfinding for hospitals, campuses, airports, venues and shopping centres: turn-by-turn routes across floors on the web, kiosks and embeds, built from your floor plans." />
      <WayfindingHero />
      <WayfindingLiveDemo />
      <WayfindingPlaces />
      <WayfindingSteps />
      <WayfindingChannels />
      <WayfindingFeatures />
      <WayfindingCallToAction />
    </div>
  );
}
