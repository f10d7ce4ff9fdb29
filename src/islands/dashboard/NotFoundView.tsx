/** Shown for a /dashboard/* path the app does not know. */
export default function NotFoundView() {
  return (
    <section aria-labelledby="dash-not-found-title" className="dash-section">
      <h1 id="dash-not-found-title">Page not found</h1>
      <p>This dashboard page does not exist.</p>
      <p>
        <a href="/dashboard">Back to the Overview</a>
      </p>
    </section>
  );
}
