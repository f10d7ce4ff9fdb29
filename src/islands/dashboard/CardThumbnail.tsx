import { useEffect, useState } from 'react';
import type { UploadItem } from '../../../contract/uploads.ts';
import { keptThumbnail, loadThumbnail, type CardThumbnail as Thumbnail } from '../../stores/thumbnails.ts';

/** How long a card stays on screen before its thumbnail is asked for: cards flown past in a fast scroll ask nothing. */
const SETTLE_MS = 120;

/** The thumbnail of a card's image: loaded once the card has settled on screen, undefined until then. */
export function useCardThumbnail(item: UploadItem): Thumbnail | undefined {
  const [thumbnail, setThumbnail] = useState<Thumbnail | undefined>(() => keptThumbnail(item));
  useEffect(() => {
    if (keptThumbnail(item)) return;
    const abort = new AbortController();
    const timer = setTimeout(() => {
      void loadThumbnail(item, abort.signal).then((loaded) => {
        if (!abort.signal.aborted) setThumbnail(loaded);
      });
    }, SETTLE_MS);
    return () => {
      clearTimeout(timer);
      abort.abort();
    };
    // The item's name identifies its picture: a new object for the same image loads nothing again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [item.stored_filename]);
  return thumbnail;
}

/** The picture area of a card: the thumbnail, a placeholder while it loads, or why there is none. */
export default function CardThumbnail({ thumbnail }: { thumbnail: Thumbnail | undefined }) {
  return (
    <div className="dash-card-thumb">
      {thumbnail?.url ? (
        <img src={thumbnail.url} alt="" width={192} height={112} decoding="async" />
      ) : (
        <span className="dash-card-thumb-note">{thumbnail ? 'No preview' : ''}</span>
      )}
    </div>
  );
}
