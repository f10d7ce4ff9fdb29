// The caller's side of the check task: kept apart from check-task.ts, which the pool's worker imports, so the
// pool and its tasks do not import each other.
import { HttpError } from '../../http-errors.ts';
import type { ImageVolume } from '../../imaging/volume.ts';
import { runImagingTask } from '../../workers/imaging-pool.ts';
import { imagingMemory } from '../../workers/memory-budget.ts';
import type { BuiltinCheck } from './builtin-check.ts';

/**
 * checkVolume on the imaging pool, under the shared memory budget (measuring copies and masks the volume some
 * times over): a large image's check takes most of a second, during which no other request would move.
 * Throws checkVolume's 422 when the image cannot be measured.
 */
export async function checkVolumeOffThread(volume: ImageVolume): Promise<BuiltinCheck> {
  const answer = await imagingMemory.use(3 * volume.data.byteLength, () => runImagingTask('checkDecoded', { volume }));
  if (!answer.ok) throw new HttpError(422, answer.detail);
  return answer;
}
