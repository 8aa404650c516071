import { BankOutlined, BuildOutlined, CheckOutlined, DatabaseOutlined, FundOutlined, HomeOutlined, TeamOutlined } from '@ant-design/icons';
import { Link } from 'react-router-dom';
import { BrandMark } from '../ui/BrandMark';
import { ButtonLink } from '../ui/ButtonLink';
import { AUDIENCES, DATA_SOURCES, HAZARD_LIST, HORIZONS, STEPS } from '../features/landing/content';
import { DemoRequestForm } from '../features/landing/DemoRequestForm';
import { HeroPreview } from '../features/landing/HeroPreview';
import { useDocumentTitle } from '../lib/useDocumentTitle';

const AUDIENCE_ICONS: Record<string, React.ReactNode> = {
  corporations: <BuildOutlined />,
  investors: <FundOutlined />,
  banks: <BankOutlined />,
  realestate: <HomeOutlined />,
  communities: <TeamOutlined />,
};

export function LandingPage() {
  useDocumentTitle(null);
  return (
    <div className="crp-landing">
      <header className="crp-landing-nav">
        <div className="crp-container crp-landing-nav-inner">
          <Link to="/" aria-label="Home">
            <BrandMark dark />
          </Link>
          <nav aria-label="Sections" className="crp-landing-links">
            <a href="#who">Who it serves</a>
            <a href="#hazards">Hazards</a>
            <a href="#data">Data</a>
            <a href="#demo">Request a Demo</a>
          </nav>
          <div className="crp-landing-auth">
            <ButtonLink to="/login" type="text" className="crp-nav-login">
              Log In
            </ButtonLink>
            <ButtonLink to="/register" type="primary">
              Sign Up
            </ButtonLink>
          </div>
        </div>
      </header>

      <section className="crp-hero">
        <div className="crp-container crp-hero-grid">
          <div className="crp-hero-copy">
            <div className="crp-eyebrow">Physical and transition climate risk analytics</div>
            <h1>Know what climate change will cost every asset you own, finance or insure.</h1>
            <p className="crp-hero-lead">
              Map a portfolio, assess eleven hazards under RCP and SSP pathways, and see the 20-year expected loss from today to 2100, asset by asset.
            </p>
            <div className="crp-hero-ctas">
              <ButtonLink to="/register" type="primary" size="large">
                Sign Up
              </ButtonLink>
              <ButtonLink to="/login" size="large" ghost>
                Log In
              </ButtonLink>
              <a href="#demo" className="crp-hero-demo">
                Request a Demo →
              </a>
            </div>
            <ul className="crp-hero-facts">
              <li>
                <strong>11</strong> hazards
              </li>
              <li>
                <strong>2020–2100</strong> every 20 years
              </li>
              <li>
                <strong>RCP &amp; SSP</strong> 2.6 · 4.5 · 8.5
              </li>
            </ul>
          </div>
          <HeroPreview />
        </div>
      </section>

      <section id="who" className="crp-section">
        <div className="crp-container">
          <div className="crp-section-head">
            <div className="crp-eyebrow crp-eyebrow-dark">Who it serves</div>
            <h2>One risk view for everyone with assets on the ground</h2>
          </div>
          <div className="crp-audience-grid">
            {AUDIENCES.map((a) => (
              <article key={a.key} className="crp-audience">
                <div className="crp-audience-icon" aria-hidden="true">
                  {AUDIENCE_ICONS[a.key]}
                </div>
                <h3>{a.title}</h3>
                <p>{a.text}</p>
              </article>
            ))}
          </div>
        </div>
      </section>

      <section className="crp-section crp-section-alt">
        <div className="crp-container">
          <div className="crp-section-head">
            <div className="crp-eyebrow crp-eyebrow-dark">How it works</div>
            <h2>From a list of addresses to a board-ready answer</h2>
          </div>
          <ol className="crp-steps">
            {STEPS.map((s, i) => (
              <li key={s.title}>
                <span className="crp-step-num">{i + 1}</span>
                <h3>{s.title}</h3>
                <p>{s.text}</p>
              </li>
            ))}
          </ol>
        </div>
      </section>

      <section id="hazards" className="crp-section">
        <div className="crp-container crp-hazards-grid">
          <div>
            <div className="crp-eyebrow crp-eyebrow-dark">Hazards</div>
            <h2>Eleven perils, acute and chronic</h2>
            <p className="crp-section-lead">
              River flood, typhoon and storm surge are assessed for every portfolio. Add the others that matter to your assets.
            </p>
            <ul className="crp-hazard-chips">
              {HAZARD_LIST.map((h) => (
                <li key={h.key} className={`crp-hazard-chip crp-hazard-${h.kind}`}>
                  {h.label}
                  <span>{h.kind}</span>
                </li>
              ))}
            </ul>
          </div>
          <div className="crp-horizons" aria-label="Simulation horizons">
            <h3>Future perils simulated every 20 years from 2020 to 2100</h3>
            <p className="crp-muted">Each horizon under low, middle and high emission pathways (SSP1-2.6, SSP2-4.5, SSP5-8.5).</p>
            <ol className="crp-timeline">
              {HORIZONS.map((h) => (
                <li key={h.year}>
                  <span className="crp-timeline-year">{h.year}</span>
                  <span className="crp-timeline-label">{h.label}</span>
                  <span className="crp-timeline-text">{h.text}</span>
                </li>
              ))}
            </ol>
          </div>
        </div>
      </section>

      <section id="data" className="crp-section crp-section-dark">
        <div className="crp-container">
          <div className="crp-section-head">
            <div className="crp-eyebrow">Data sources</div>
            <h2>Built on open, peer-reviewed science</h2>
            <p className="crp-section-lead">Every score traces back to public data you can cite in a disclosure.</p>
          </div>
          <div className="crp-sources">
            {DATA_SOURCES.map((g) => (
              <div key={g.group} className="crp-source">
                <DatabaseOutlined aria-hidden="true" />
                <div>
                  <h3>{g.group}</h3>
                  <p>{g.items.join(' · ')}</p>
                </div>
              </div>
            ))}
          </div>
        </div>
      </section>

      <section id="demo" className="crp-section">
        <div className="crp-container crp-demo-grid">
          <div>
            <div className="crp-eyebrow crp-eyebrow-dark">Request a Demo</div>
            <h2>See your own portfolio in thirty minutes</h2>
            <p className="crp-section-lead">Tell us about your assets and we will walk you through the results live.</p>
            <ul className="crp-checks">
              {['Asset-level scores and losses', 'Scenario and horizon comparison', 'Reports for TCFD and ISSB', 'API access for your models'].map((t) => (
                <li key={t}>
                  <CheckOutlined aria-hidden="true" /> {t}
                </li>
              ))}
            </ul>
          </div>
          <div className="crp-demo-card">
            <DemoRequestForm />
          </div>
        </div>
      </section>

      <footer className="crp-footer">
        <div className="crp-container crp-footer-inner">
          <BrandMark dark />
          <nav aria-label="Footer" className="crp-footer-links">
            <Link to="/login">Log In</Link>
            <Link to="/register">Sign Up</Link>
            <a href="#demo">Request a Demo</a>
            <a href="/docs" target="_blank" rel="noopener noreferrer">
              API Docs
            </a>
          </nav>
          <span className="crp-footer-copy">© {new Date().getFullYear()} Climate Risk Platform</span>
        </div>
      </footer>
    </div>
  );
}
