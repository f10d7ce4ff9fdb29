/** The 3D Models view of the dashboard; replaced by the 3Dmol.js viewer. */
export default function ModelViewerPage() {
  return (
    <section aria-labelledby="model-viewer-title">
      <h1 id="model-viewer-title">3D Models</h1>
    </section>
  );
}
