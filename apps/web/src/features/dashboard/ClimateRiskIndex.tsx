import { useState } from 'react';
import { Button, Modal, Tooltip } from 'antd';
import { PictureOutlined } from '@ant-design/icons';
import { CLIMATE_SCORE_COLOURS, markerColour, severityBand } from '@crp/contracts';

const W = 760;
const X0 = 40;
const X1 = W - 40;
const x = (score: number) => X0 + ((X1 - X0) * score) / 100;
const clamp = (score: number) => Math.max(0, Math.min(100, score));

/** The three climate-score levels (spec 000 §9) as spans of the 0-100 scale. */
const LEVELS = [
  { from: 0, to: 20, label: 'Low risk', colour: CLIMATE_SCORE_COLOURS.low },
  { from: 20, to: 60, label: 'Medium risk', colour: CLIMATE_SCORE_COLOURS.medium },
  { from: 60, to: 100, label: 'High risk', colour: CLIMATE_SCORE_COLOURS.high },
];

/** The hazard severity bands (spec 001 §4), sampled from the same function the server uses. */
const SEVERITY = [
  { from: 0, to: 25, at: 10 },
  { from: 25, to: 50, at: 30 },
  { from: 50, to: 75, at: 60 },
  { from: 75, to: 100, at: 80 },
].map((b) => ({ ...b, label: severityBand(b.at), colour: markerColour(b.at + 1) }));

/**
 * The Climate Risk Index image (spec 001 §2.1 "Climate Risk Index image"): one picture of how a 0-100 score reads,
 * drawn from the same band functions as the dashboard so the picture can never disagree with the numbers.
 */
export function ClimateRiskIndexImage({ score }: { score?: number | null }) {
  return (
    <svg viewBox={`0 0 ${W} 300`} width="100%" role="img" aria-label="Climate Risk Index: score bands from 0 to 100" data-testid="climate-risk-index-image">
      <text x={X0} y={24} fontSize={16} fontWeight={700} fill="#0b2540">
        Climate Risk Index (0-100)
      </text>
      <text x={X0} y={44} fontSize={12} fill="#5b6b7c">
        Overall climate score of a portfolio or asset: the score of the summed expected losses of the chosen hazards
      </text>
      {LEVELS.map((l) => (
        <g key={l.label}>
          <rect x={x(l.from)} y={70} width={x(l.to) - x(l.from)} height={34} fill={l.colour} opacity={0.9} />
          <text x={(x(l.from) + x(l.to)) / 2} y={92} fontSize={13} fontWeight={600} fill="#fff" textAnchor="middle">
            {l.label}
          </text>
        </g>
      ))}
      {[0, 20, 60, 100].map((t) => (
        <text key={t} x={x(t)} y={120} fontSize={11} fill="#334155" textAnchor="middle">
          {t}
        </text>
      ))}
      {typeof score === 'number' && (
        <g data-testid="climate-risk-index-marker">
          <line x1={x(clamp(score))} x2={x(clamp(score))} y1={66} y2={108} stroke="#0b2540" strokeWidth={3} />
          <text
            x={x(clamp(score))}
            y={62}
            fontSize={12}
            fontWeight={700}
            fill="#0b2540"
            textAnchor={clamp(score) > 85 ? 'end' : clamp(score) < 15 ? 'start' : 'middle'}
          >
            This selection: {score.toFixed(1)}
          </text>
        </g>
      )}
      <text x={X0} y={148} fontSize={14} fontWeight={700} fill="#0b2540">
        Hazard severity bands
      </text>
      <text x={X0} y={166} fontSize={12} fill="#5b6b7c">
        Each hazard's score per asset: 0 is No Risk and 100 Very High; the heat map and the world map use these colours
      </text>
      {SEVERITY.map((b) => (
        <g key={b.label}>
          <rect x={x(b.from)} y={180} width={x(b.to) - x(b.from)} height={30} fill={b.colour} stroke="#fff" />
          <text x={(x(b.from) + x(b.to)) / 2} y={200} fontSize={12} fontWeight={600} fill="#1f2937" textAnchor="middle">
            {b.label}
          </text>
        </g>
      ))}
      {[0, 25, 50, 75, 100].map((t) => (
        <text key={t} x={x(t)} y={226} fontSize={11} fill="#334155" textAnchor="middle">
          {t}
        </text>
      ))}
      <rect x={X0} y={246} width={14} height={14} fill={markerColour(0)} />
      <text x={X0 + 20} y={258} fontSize={11} fill="#334155">
        0: No Risk (no colour band)
      </text>
      <rect x={X0 + 230} y={246} width={14} height={14} fill={markerColour(100)} />
      <text x={X0 + 250} y={258} fontSize={11} fill="#334155">
        100: Very High (the most severe modelled level)
      </text>
      <text x={X0} y={288} fontSize={11} fill="#5b6b7c">
        How scores are computed: Methodology, section on scores (Documents in the menu).
      </text>
    </svg>
  );
}

/** The button and modal that show the Climate Risk Index image next to the Climate Score. */
export function ClimateRiskIndexButton({ score }: { score: number | null }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      {/* icon only beside the card's title (the label was cut at 1280 px); its name and tooltip say what it opens */}
      <Tooltip title="Climate Risk Index">
        <Button size="small" icon={<PictureOutlined />} aria-label="Climate Risk Index" onClick={() => setOpen(true)} />
      </Tooltip>
      <Modal
        title="Climate Risk Index"
        open={open}
        width={820}
        onCancel={() => setOpen(false)}
        footer={<Button onClick={() => setOpen(false)}>Close</Button>}
        destroyOnHidden
      >
        <ClimateRiskIndexImage score={score} />
      </Modal>
    </>
  );
}
