/** `npm run demo:generate`: writes the demo mall's floor plans to client/public/assets/demo. */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { DEMO_FLOORS, floorPlanSvg } from '../server/seed/demo-mall.js';

const folder = path.resolve(import.meta.dirname, '../client/public/assets/demo');
for (const floor of DEMO_FLOORS) {
  const file = path.join(folder, `riverside-${floor.id}.svg`);
  writeFileSync(file, floorPlanSvg(floor));
  console.log(`wrote ${path.relative(process.cwd(), file)}`);
}
