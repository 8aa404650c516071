import { Card, Empty, List, Tag } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { queryKeys } from '../../api/queryKeys';
import { fetchPropertyRiskProjects } from '../../api/realestate';
import { ButtonLink } from '../../ui/ButtonLink';

const STATUS_COLOURS = { done: 'green', running: 'blue', queued: 'default', failed: 'red' } as const;

/** The caller's property-risk projects, each opening the Property Risk Analysis page with its name in the state. */
export function PropertyProjectsCard() {
  const q = useQuery({ queryKey: queryKeys.propertyRiskProjects, queryFn: fetchPropertyRiskProjects, staleTime: 10_000 });
  const list = q.data ?? [];
  return (
    <Card
      className="crp-card crp-gap-top"
      size="small"
      title={`My property-risk projects (${list.length})`}
      data-testid="property-projects"
      loading={q.isPending}
    >
      {list.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="No property-risk project yet: select properties above and Create Project." />
      ) : (
        <List
          size="small"
          dataSource={list}
          pagination={list.length > 6 ? { pageSize: 6, size: 'small' } : false}
          renderItem={(p) => (
            <List.Item
              actions={[
                <ButtonLink key="open" size="small" to="/property-risk" state={{ project_name: p.name }}>
                  Open
                </ButtonLink>,
              ]}
            >
              <List.Item.Meta
                title={<span title={p.name}>{p.name.length > 40 ? `${p.name.slice(0, 40)}...` : p.name}</span>}
                description={
                  <>
                    {p.date} · {p.properties} propert{p.properties === 1 ? 'y' : 'ies'} <Tag color={STATUS_COLOURS[p.status]}>{p.status}</Tag>
                    {!p.own && <Tag>shared</Tag>}
                  </>
                }
              />
            </List.Item>
          )}
        />
      )}
    </Card>
  );
}
