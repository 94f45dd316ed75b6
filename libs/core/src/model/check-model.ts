/**
 * `npm run check:model`: loads the whole model and validates every aspect of the reference
 * samples against it. Prints each problem and exits non-zero when there is one.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadModel } from './load-model';
import { Registry } from './registry';
import { readSnapshot } from './snapshot';
import { validateValue } from './validate';

const samplesDir = process.argv[2] ?? resolve(__dirname, '../../../../../shared/data/reference-samples');

function main(): number {
  const model = loadModel(undefined, { strict: false });
  const problems: string[] = [...model.warnings];
  const registry = new Registry(model);
  let checked = 0;
  for (const file of readdirSync(samplesDir).filter((f) => f.endsWith('.json')).sort()) {
    const data = JSON.parse(readFileSync(join(samplesDir, file), 'utf8'));
    const records: unknown[] = Array.isArray(data) ? data : [data];
    records.forEach((r, i) => {
      const where = `${file}#${i}`;
      const rec = r as Record<string, any>;
      try {
        if (rec.proposedSnapshot) {
          const snap = readSnapshot(registry, rec.proposedSnapshot);
          registry.parseEntityUrn(snap.urn);
          for (const a of snap.aspects) {
            checked++;
            if (!snap.entity.aspects.has(a.spec.name)) problems.push(`${where}: aspect ${a.spec.name} is not an aspect of ${snap.entity.name}`);
            for (const e of validateValue(a.value, a.spec.type).errors) problems.push(`${where} ${a.spec.name}${e}`);
          }
        } else {
          checked++;
          const entity = registry.entity(rec.entityType);
          if (!entity) return void problems.push(`${where}: unknown entity ${rec.entityType}`);
          registry.parseEntityUrn(rec.entityUrn);
          const spec = entity.aspects.get(rec.aspectName);
          if (!spec) return void problems.push(`${where}: aspect ${rec.aspectName} is not an aspect of ${entity.name}`);
          const value = rec.aspect.json ?? JSON.parse(rec.aspect.value);
          for (const e of validateValue(value, spec.type).errors) problems.push(`${where} ${spec.name}${e}`);
        }
      } catch (err) {
        problems.push(`${where}: ${(err as Error).message}`);
      }
    });
  }
  for (const p of problems) console.log(p);
  console.log(`${model.entities.size} entities, ${model.aspects.size} aspects, ${model.types.size} named types; ${checked} sample aspects checked; ${problems.length} problems`);
  return problems.length ? 1 : 0;
}

process.exitCode = main();
