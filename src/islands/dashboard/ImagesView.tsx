import { useStore } from '@nanostores/react';
import { useEffect, useRef } from 'react';
import type { UploadItem } from '../../../contract/uploads.ts';
import { $detailsItem, closeDetails, openDetails } from '../../stores/details.ts';
import { $imageSearch, $images, $visibleImages, loadImages } from '../../stores/images.ts';
import DetailsModal from './DetailsModal.tsx';
import ImageCard from './ImageCard.tsx';
import UploadControls from './UploadControls.tsx';

/** /dashboard/images: search, upload, the grid of cards and the details modal. */
export default function ImagesView() {
  const state = useStore($images);
  const visible = useStore($visibleImages);
  const search = useStore($imageSearch);
  const detailsItem = useStore($detailsItem);
  const opener = useRef<HTMLElement | null>(null);

  useEffect(() => {
    void loadImages();
    return () => closeDetails();
  }, []);

  const open = (item: UploadItem, button: HTMLElement) => {
    opener.current = button;
    void openDetails(item);
  };
  const close = () => {
    closeDetails();
    // Focus goes back to the Details button that opened the modal.
    opener.current?.focus();
  };

  return (
    <section aria-labelledby="images-title" className="dash-section">
      <h1 id="images-title">My Images</h1>
      <div className="dash-toolbar">
        <div className="dash-field">
          <label htmlFor="image-search">Search images</label>
          <input
            id="image-search"
            type="search"
            value={search}
            placeholder="Search by name"
            onChange={(event) => $imageSearch.set(event.target.value)}
          />
        </div>
      </div>
      <UploadControls />
      {state.error && (
        <p role="alert" className="dash-error">
          {state.error}
        </p>
      )}
      {state.loading && !state.loaded && <p role="status">Loading images...</p>}
      {state.loaded && visible.length === 0 && !state.error && <p className="dash-empty">No images found.</p>}
      {visible.length > 0 && (
        <ul className="dash-grid" aria-label="Images">
          {visible.map((item) => (
            <ImageCard key={item.stored_filename} item={item} onDetails={open} />
          ))}
        </ul>
      )}
      {detailsItem && <DetailsModal item={detailsItem} onClose={close} />}
    </section>
  );
}
