import { Alert, Card, Col, Empty, Row, Skeleton } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { fetchMapProjects } from '../../api/maps';
import { firstErrorMessage } from '../../api/http';
import { queryKeys } from '../../api/queryKeys';
import { ButtonLink } from '../../ui/ButtonLink';

/** The Maps tab of /project (spec 000 §4 "Maps tab"): name, creation date, 'N km x N km', variable; Analyse opens /map. */
export function MapProjectsTab({ active }: { active: boolean }) {
  const maps = useQuery({ queryKey: queryKeys.mapProjects, queryFn: fetchMapProjects, enabled: active });
  if (maps.isPending) return <Skeleton active />;
  if (maps.isError)
    return <Alert type="error" showIcon title="Map projects could not be loaded" description={firstErrorMessage(maps.error, 'Try again in a moment.')} />;
  if (maps.data.length === 0) {
    return (
      <Empty className="crp-empty" description="No map projects yet" data-testid="maps-empty">
        <ButtonLink type="primary" to="/create-map">
          Create a map
        </ButtonLink>
      </Empty>
    );
  }
  return (
    <Row gutter={[20, 20]} data-testid="map-projects">
      {maps.data.map((m) => (
        <Col xs={24} md={12} xl={8} key={m.project_id}>
          <Card className="crp-card" title={m.name} data-testid="map-project-card" extra={<ButtonLink to={`/map/${m.project_id}`}>Analyse</ButtonLink>}>
            <div className="crp-muted">Created {m.created_at.slice(0, 10)}</div>
            <div>
              Distance: {m.distance} km x {m.distance} km
            </div>
            <div>Variable: {m.portfolio_variable}</div>
            {m.address && <div className="crp-muted">{m.address}</div>}
          </Card>
        </Col>
      ))}
    </Row>
  );
}
