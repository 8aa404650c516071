import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { CheckCircleFilled } from '@ant-design/icons';
import { BrandMark } from './BrandMark';

const POINTS = [
  'Eleven acute and chronic hazards for every asset',
  '20-year expected loss under RCP and SSP scenarios',
  'Projections from 2020 to 2100 (SSP every 5 years, RCP 2030 and 2050)',
];

/** Two-column frame for the login and registration screens. */
export function AuthLayout({ title, subtitle, children }: { title: string; subtitle?: ReactNode; children: ReactNode }) {
  return (
    <div className="crp-auth">
      <aside className="crp-auth-aside" aria-label="About the platform">
        <Link to="/" className="crp-auth-brand" aria-label="Back to the home page">
          <BrandMark dark />
        </Link>
        <div className="crp-auth-pitch">
          <h2>Know what the climate will cost your portfolio.</h2>
          <ul>
            {POINTS.map((p) => (
              <li key={p}>
                <CheckCircleFilled aria-hidden="true" /> {p}
              </li>
            ))}
          </ul>
        </div>
        <svg className="crp-auth-contours" viewBox="0 0 400 200" preserveAspectRatio="none" aria-hidden="true">
          {Array.from({ length: 9 }, (_, i) => (
            <path
              key={i}
              d={`M0 ${40 + i * 18} C 80 ${10 + i * 18}, 160 ${90 + i * 16}, 240 ${45 + i * 18} S 360 ${20 + i * 17}, 400 ${60 + i * 16}`}
              fill="none"
              stroke="currentColor"
              strokeWidth="1"
            />
          ))}
        </svg>
      </aside>
      <main className="crp-auth-main">
        <div className="crp-auth-card">
          <h1 className="crp-auth-title">{title}</h1>
          {subtitle && <p className="crp-auth-subtitle">{subtitle}</p>}
          {children}
        </div>
      </main>
    </div>
  );
}
