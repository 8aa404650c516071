const HAZARD_ROWS = [
  { label: 'Typhoon', score: 72, band: 'High', color: '#dc2626' },
  { label: 'River Flood', score: 58, band: 'Medium-High', color: '#ea580c' },
  { label: 'Storm Surge', score: 41, band: 'Medium', color: '#f59e0b' },
  { label: 'Extreme Heat', score: 33, band: 'Medium', color: '#f59e0b' },
  { label: 'Landslide', score: 12, band: 'Low', color: '#16a34a' },
];

/** Static, clearly labelled sample of what a portfolio result looks like. */
export function HeroPreview() {
  return (
    <figure className="crp-preview" aria-label="Sample portfolio result (illustrative data)">
      <div className="crp-preview-head">
        <div>
          <div className="crp-preview-kicker">Sample portfolio · 48 assets</div>
          <div className="crp-preview-title">APAC logistics hubs</div>
        </div>
        <span className="crp-preview-chip">SSP5-8.5 · 2050</span>
      </div>
      <div className="crp-preview-score">
        <div>
          <div className="crp-preview-label">Climate Score</div>
          <div className="crp-preview-big">
            46<span>%</span>
          </div>
          <div className="crp-preview-band">Medium risk</div>
        </div>
        <div className="crp-preview-kpis">
          <div>
            <span>20-year expected loss</span>
            <strong>$12.4M</strong>
          </div>
          <div>
            <span>Residual 20-year expected loss</span>
            <strong>$8.9M</strong>
          </div>
          <div>
            <span>Max exposure</span>
            <strong>$318M</strong>
          </div>
        </div>
      </div>
      <div className="crp-preview-meter" aria-hidden="true">
        <span style={{ width: '46%' }} />
      </div>
      <ul className="crp-preview-hazards">
        {HAZARD_ROWS.map((h) => (
          <li key={h.label}>
            <span className="crp-preview-hz">{h.label}</span>
            <span className="crp-preview-bar" aria-hidden="true">
              <span style={{ width: `${h.score}%`, background: h.color }} />
            </span>
            <span className="crp-preview-val">{h.score}</span>
            <span className="crp-preview-sev" style={{ color: h.color }}>
              {h.band}
            </span>
          </li>
        ))}
      </ul>
      <figcaption>Illustrative figures</figcaption>
    </figure>
  );
}
