/** The Analysis view of the dashboard; filled by the quality-control engine's page. */
export default function AnalysisView() {
  return (
    <section aria-labelledby="analysis-title">
      <h1 id="analysis-title">Analysis</h1>
    </section>
  );
}
