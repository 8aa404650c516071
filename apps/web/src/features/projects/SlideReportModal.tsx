import { useEffect, useRef, useState } from 'react';
import { Alert, Button, Modal, Radio, Select, Space, Typography } from 'antd';
import { FilePdfOutlined, FilePptOutlined } from '@ant-design/icons';
import { useMutation } from '@tanstack/react-query';
import { SCENARIO_LABELS, SCENARIOS, YEARS, type ScenarioCode } from '@crp/contracts';
import { firstErrorMessage } from '../../api/http';
import { generateSlideReport, type PhysicalProject } from '../../api/projects';

/** Spec 000 §9: the slide report's link opens after 3 seconds. */
export const REPORT_OPEN_DELAY_MS = 3000;

/**
 * The card's Report action: pick With Content or Without Content, generate the slide report on the server, then open
 * the PDF in a new tab after 3 seconds. The tab is opened at the click (so no pop-up blocker stops it) and pointed at
 * the report when the delay is over; the modal keeps the PDF and PPTX links in case the tab was closed.
 */
export function SlideReportModal({ project, onClose }: { project: PhysicalProject | null; onClose: () => void }) {
  const [withContent, setWithContent] = useState(true);
  // The scenario and year of the report: the ones the dashboard opens with (the user's saved defaults, else the project's)
  // until the user picks others (issue 37 item 7: the report was fixed at the saved defaults)
  const [scenario, setScenario] = useState<ScenarioCode>('45');
  const [year, setYear] = useState(2050);
  const analysisType = project?.dashboard_filters.analysis_type ?? 'ssp';
  const [countdown, setCountdown] = useState<number | null>(null);
  const tab = useRef<Window | null>(null);
  const timer = useRef<number | null>(null);
  /** The report's link while the countdown runs. */
  const readyUrl = useRef<string | null>(null);
  const generate = useMutation({
    mutationFn: (p: PhysicalProject) => generateSlideReport(p.project_id, { analysisType: p.dashboard_filters.analysis_type, scenario, year, withContent }),
  });

  const stopCountdown = () => {
    if (timer.current !== null) window.clearInterval(timer.current);
    timer.current = null;
  };
  /** Points the tab opened at the click at the report (or opens one when it was closed). */
  const openReport = (url: string) => {
    stopCountdown();
    readyUrl.current = null;
    if (tab.current && !tab.current.closed) tab.current.location.href = url;
    else window.open(url, '_blank', 'noopener');
    tab.current = null;
  };
  // Closing the dialog: a report counting down opens at once; a tab still waiting for one is closed.
  const settle = () => {
    if (readyUrl.current) openReport(readyUrl.current);
    else tab.current?.close();
    tab.current = null;
  };
  useEffect(() => {
    setWithContent(true);
    if (project) {
      const f = project.dashboard_filters;
      setScenario(f.scenario);
      setYear(YEARS[f.analysis_type].includes(f.year) ? f.year : 2050);
    }
    setCountdown(null);
    generate.reset();
    return settle;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [project]);

  const start = () => {
    if (!project) return;
    tab.current = window.open('', '_blank');
    tab.current?.document.write('<title>Generating report...</title><p style="font-family:sans-serif;padding:40px">Generating the slide report...</p>');
    generate.mutate(project, {
      onSuccess: (r) => {
        if (r.status === 'failed') {
          tab.current?.close();
          tab.current = null;
          return;
        }
        readyUrl.current = r.url;
        // One tick a second counts down on screen; the last one points the tab at the report.
        let left = REPORT_OPEN_DELAY_MS / 1000;
        setCountdown(left);
        timer.current = window.setInterval(() => {
          left -= 1;
          setCountdown(left);
          if (left <= 0) openReport(r.url);
        }, 1000);
      },
      onError: () => {
        tab.current?.close();
        tab.current = null;
      },
    });
  };

  const result = generate.data;
  const failed = generate.isError || result?.status === 'failed';
  return (
    <Modal
      title={project ? `Slide report: ${project.name}` : 'Slide report'}
      open={project !== null}
      onCancel={onClose}
      footer={
        result && !failed ? (
          <Button onClick={onClose}>Close</Button>
        ) : (
          <Space>
            <Button onClick={onClose}>Cancel</Button>
            <Button type="primary" icon={<FilePdfOutlined />} loading={generate.isPending} onClick={start}>
              Generate
            </Button>
          </Space>
        )
      }
      destroyOnHidden
    >
      <Typography.Paragraph className="crp-muted">
        A presentation of the portfolio at the scenario and year below: climate score, key figures, 20-year expected loss vs residual 20-year expected loss,
        heat map, top assets, one page per hazard, adaptation recommendations and the data sources. PDF and PowerPoint.
      </Typography.Paragraph>
      <Space className="crp-mb" wrap>
        <span>Scenario</span>
        <Select<ScenarioCode>
          aria-label="Report scenario"
          data-testid="report-scenario"
          style={{ width: 150 }}
          value={scenario}
          onChange={setScenario}
          disabled={generate.isPending || !!result}
          options={SCENARIOS.map((sc) => ({ value: sc, label: SCENARIO_LABELS[analysisType][sc] }))}
        />
        <span>Year</span>
        <Select<number>
          aria-label="Report year"
          data-testid="report-year"
          style={{ width: 100 }}
          value={year}
          onChange={setYear}
          disabled={generate.isPending || !!result}
          options={YEARS[analysisType].map((y) => ({ value: y, label: String(y) }))}
        />
      </Space>
      <Radio.Group
        value={withContent}
        onChange={(e) => setWithContent(e.target.value as boolean)}
        disabled={generate.isPending || !!result}
        aria-label="Report variant"
      >
        <Radio value={true}>With Content</Radio>
        <Radio value={false}>Without Content</Radio>
      </Radio.Group>
      <Typography.Paragraph className="crp-muted crp-mt" style={{ fontSize: 12 }}>
        With Content counts the loss of building contents as well as the building.
      </Typography.Paragraph>
      {failed && (
        <Alert
          type="error"
          showIcon
          className="crp-mt"
          data-testid="report-error"
          title={result?.error ?? firstErrorMessage(generate.error, 'The report could not be made. Try again.')}
        />
      )}
      {result && !failed && (
        <Alert
          className="crp-mt"
          type="success"
          showIcon
          data-testid="report-ready"
          title={
            countdown && countdown > 0
              ? `Report ready (${result.slides ?? '?'} slides): it opens in a new tab in ${countdown} s.`
              : `Report ready (${result.slides ?? '?'} slides).`
          }
          description={
            <Space>
              <a href={result.url} target="_blank" rel="noopener noreferrer">
                <FilePdfOutlined /> Open PDF
              </a>
              <a href={result.pptx_url} download>
                <FilePptOutlined /> Download PowerPoint
              </a>
            </Space>
          }
        />
      )}
    </Modal>
  );
}
