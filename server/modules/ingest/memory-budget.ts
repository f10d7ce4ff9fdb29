import { HttpError } from '../../http-errors.ts';

/** The refusal when every byte the budget allows is held by uploads in progress. */
export const SERVER_BUSY_DETAIL = 'The server is busy with other uploads. Try again in a minute.';

/** A 503 with SERVER_BUSY_DETAIL: nothing is wrong with the upload, the server has no room for it now. */
export const serverBusy = (): HttpError => new HttpError(503, SERVER_BUSY_DETAIL);

/** Bytes one upload holds against a shared budget; released together when the upload is done with them. */
export interface MemoryHold {
  /** Counts `bytes` as held; false, counting nothing, when the budget has no room for them. */
  take(bytes: number): boolean;
  /** Counts `bytes` as held or throws the 503 busy refusal. */
  takeOrRefuse(bytes: number): void;
  /** Gives back everything this hold took. */
  release(): void;
}

/** One memory budget shared by everything an app's ingest buffers at once. */
export interface MemoryBudget {
  /** A new, empty hold on the budget. */
  hold(): MemoryHold;
  /** Bytes held now by every upload together. */
  held(): number;
  /** The budget's size in bytes. */
  readonly total: number;
}

/**
 * A budget of `total` bytes for what uploads hold in memory (a DICOM read whole to be de-identified, a
 * picture rewritten without its metadata, the parts of a series): parallel uploads cannot take the server's
 * memory between them, the one that would pass the budget is refused with 503.
 * @example createMemoryBudget(1024).hold().take(2048) // false
 */
export function createMemoryBudget(total: number): MemoryBudget {
  let heldByAll = 0;
  return {
    total,
    held: () => heldByAll,
    hold() {
      let held = 0;
      const take = (bytes: number) => {
        if (heldByAll + bytes > total) return false;
        held += bytes;
        heldByAll += bytes;
        return true;
      };
      return {
        take,
        takeOrRefuse(bytes) {
          if (!take(bytes)) throw serverBusy();
        },
        release() {
          heldByAll -= held;
          held = 0;
        },
      };
    },
  };
}
