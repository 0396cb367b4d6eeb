// The JSON Schema of scenario files, generated from the zod schemas of format.ts and shipped as
// docs/scenario.schema.json, so an editor completes endpoint ids and request fields
// (`# yaml-language-server: $schema=…` in a YAML file, or `"$schema"` in a JSON one).
import { z } from 'zod';
import { ScenarioFileSchema, scenarioRegistry } from './format.js';

export function buildScenarioJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(ScenarioFileSchema, {
    target: 'draft-2020-12',
    unrepresentable: 'any',
    io: 'input',
    metadata: scenarioRegistry,
  }) as Record<string, unknown>;
  return { ...schema, $id: 'https://paygate.dev/schemas/scenario.schema.json' };
}
