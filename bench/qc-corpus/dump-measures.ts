// Prints every measurement the engine takes of the training split, the held-out split and the real tier,
// one JSON line per image, so a change that means to keep the measurements can be checked to the bit:
//   node bench/qc-corpus/dump-measures.ts [CT MR …] > before.jsonl   (change)   … > after.jsonl; cmp before.jsonl after.jsonl
// A family's images are generated from their own seed, so a dump of some families is a slice of the whole dump.
import { measureQuality } from '../../server/imaging/metrics/quality-metrics.ts';
import type { ModalityFamily } from '../../server/imaging/metrics/modality.ts';
import { FAMILIES, HELD_OUT, realTier, syntheticSplit, type Sample } from './corpus.ts';
import { HELD_OUT_SETTINGS, TRAIN_SETTINGS } from './generate.ts';
import { TRAIN } from './fit.ts';

const only = process.argv.slice(2).filter((a): a is ModalityFamily => (FAMILIES as string[]).includes(a));
const families = only.length ? only : FAMILIES;

async function dump(split: string, samples: Iterable<Sample> | AsyncIterable<Sample>) {
  for await (const s of samples) {
    if (!families.includes(s.family)) continue;
    console.log(JSON.stringify({ split, name: s.name, metrics: measureQuality(s.volume) }));
  }
}

await dump('train', syntheticSplit(TRAIN.seed, TRAIN_SETTINGS, TRAIN.size, families));
await dump('held-out', syntheticSplit(HELD_OUT.seed, HELD_OUT_SETTINGS, HELD_OUT.size, families));
await dump('real', realTier(3));
