import { Button, Card, Empty } from 'antd';
import { useNavigate } from 'react-router-dom';

/** The body of a page that is opened with navigation state (a report of a project) when it is visited without it. */
export function NeedsStateCard({ description }: { description: string }) {
  const navigate = useNavigate();
  return (
    <Card className="crp-card">
      <Empty description={description}>
        <Button type="primary" onClick={() => navigate('/project')}>
          Go to projects
        </Button>
      </Empty>
    </Card>
  );
}
