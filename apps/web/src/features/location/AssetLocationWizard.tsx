import { useState } from 'react';
import { Card, Col, Row, Steps, Table } from 'antd';
import { WizardNav } from './WizardNav';
import { AddCoordinatesForm } from './AddCoordinatesForm';
import { AnalysisProgress } from './AnalysisProgress';
import { formatCoord } from '../../lib/format';
import { LocationMap } from '../../ui/maps/LocationMap';
import { MarkerList } from './MarkerList';
import { PortfolioDetailsForm, type PortfolioDetails } from './PortfolioDetailsForm';
import { portfolioVariables } from './HazardPicker';
import { SubmitProblemDialog } from './SubmitProblemDialog';
import { useCreatePortfolio } from './useCreatePortfolio';
import { useLeaveWarning } from './useLeaveWarning';
import { useMapMarkers, type MapMarker } from './useMapMarkers';

const STEPS = [{ title: 'Mark or Upload location' }, { title: 'Portfolio Name and Hazard' }, { title: 'Location Assets' }];

export function AssetLocationWizard() {
  const [step, setStep] = useState(0);
  const markers = useMapMarkers();
  const [details, setDetails] = useState<PortfolioDetails>({ name: '', hazards: [], analysisType: 'ssp' });
  const create = useCreatePortfolio();

  useLeaveWarning(markers.markers.length > 0 && !create.created);

  if (create.created) {
    return (
      <AnalysisProgress
        project={create.created}
        onStartOver={() => {
          create.reset();
          markers.clear();
          setDetails({ name: '', hazards: [], analysisType: 'ssp' });
          setStep(0);
        }}
      />
    );
  }

  const canNext = step === 0 ? markers.ready : step === 1 ? details.name.trim() !== '' : false;
  const canCreate = details.name.trim() !== '' && markers.markers.length > 0 && !markers.loading && markers.ready && !create.submitting;

  const submit = () => {
    if (!canCreate) return;
    create.submit({
      portfolio_name: details.name.trim(),
      portfolio_variables: portfolioVariables(details.hazards),
      data: markers.markers.map((m) => ({ name: m.name.trim(), latitude: m.latitude, longitude: m.longitude, country_code: m.country_code ?? 'NA' })),
    });
  };

  return (
    <Card className="crp-card crp-wizard" data-testid="asset-location-wizard">
      <Steps current={step} items={STEPS} className="crp-steps" size="small" />
      {step === 0 && (
        <Row gutter={[20, 20]}>
          <Col xs={24} lg={16}>
            <LocationMap points={markers.markers} onMapClick={markers.add} />
          </Col>
          <Col xs={24} lg={8}>
            <div className="crp-field-label">Locations ({markers.markers.length})</div>
            <MarkerList markers={markers.markers} onRemove={markers.remove} onRename={markers.rename} />
            <AddCoordinatesForm onAdd={markers.add} />
          </Col>
        </Row>
      )}
      {step === 1 && <PortfolioDetailsForm value={details} onChange={setDetails} onEnter={() => canNext && setStep(2)} />}
      {step === 2 && (
        <div>
          <p>
            <strong>{details.name}</strong> · {portfolioVariables(details.hazards).join(', ')}
          </p>
          <Table<MapMarker>
            rowKey="id"
            size="middle"
            dataSource={markers.markers}
            pagination={markers.markers.length > 10 ? { pageSize: 10 } : false}
            data-testid="review-table"
            columns={[
              { title: '#', key: 'i', width: 56, render: (_, __, i) => i + 1 },
              { title: 'Name', dataIndex: 'name' },
              { title: 'Latitude', dataIndex: 'latitude', render: (v: number) => formatCoord(v) },
              { title: 'Longitude', dataIndex: 'longitude', render: (v: number) => formatCoord(v) },
              { title: 'Country', dataIndex: 'country_code', render: (v: string | null) => v ?? '—' },
            ]}
          />
        </div>
      )}
      <WizardNav step={step} setStep={setStep} canNext={canNext} canSubmit={canCreate} submitting={create.submitting} onSubmit={submit} />
      <SubmitProblemDialog problem={create.problem} onClose={create.clearProblem} />
    </Card>
  );
}
