import { useEffect, useState } from 'react';
import { Empty, Modal, Radio, Select, Tag, Typography } from 'antd';
import type { SharePermission } from '@crp/contracts';
import type { PhysicalProject, ProjectMember } from '../../api/projects';
import { firstErrorMessage } from '../../api/http';
import { useProjectActions } from './useProjectActions';

export function ShareProjectModal({ project, members, onClose }: { project: PhysicalProject | null; members: ProjectMember[]; onClose: () => void }) {
  const { share } = useProjectActions();
  const [userIds, setUserIds] = useState<number[]>([]);
  const [permission, setPermission] = useState<SharePermission>('read');
  useEffect(() => {
    setUserIds([]);
    setPermission('read');
    share.reset();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [project]);

  const options = members
    .filter((m) => m.id !== project?.owner.id)
    .map((m) => ({ value: m.id, label: `${`${m.first_name} ${m.last_name}`.trim() || m.username} (${m.username})` }));

  return (
    <Modal
      title={project ? `Share ${project.name}` : 'Share'}
      open={project !== null}
      onCancel={onClose}
      onOk={() => project && share.mutate({ projectId: project.project_id, userIds, permission }, { onSuccess: onClose })}
      okText="Share"
      confirmLoading={share.isPending}
      okButtonProps={{ disabled: userIds.length === 0 }}
      destroyOnHidden
    >
      {options.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="No colleagues to share with yet. People join your company with its company code." />
      ) : (
        <>
          <label className="crp-field-label" htmlFor="share-users">
            Company members
          </label>
          <Select
            id="share-users"
            mode="multiple"
            className="crp-full-width"
            placeholder="Choose colleagues"
            value={userIds}
            onChange={setUserIds}
            options={options}
            optionFilterProp="label"
          />
          <div className="crp-field-label crp-mt">Permission</div>
          <Radio.Group value={permission} onChange={(e) => setPermission(e.target.value as SharePermission)}>
            <Radio value="read">Read (view and download)</Radio>
            <Radio value="write">Write (also rename and edit assets)</Radio>
          </Radio.Group>
        </>
      )}
      {project && project.shared_with.length > 0 && (
        <div className="crp-mt">
          <span className="crp-muted crp-small">Already shared with: </span>
          {project.shared_with.map((s) => (
            <Tag key={s.user_id}>
              {s.username} ({s.permission})
            </Tag>
          ))}
        </div>
      )}
      {share.isError && (
        <Typography.Paragraph type="danger" className="crp-modal-error">
          {firstErrorMessage(share.error, 'The project could not be shared. Try again.')}
        </Typography.Paragraph>
      )}
    </Modal>
  );
}
