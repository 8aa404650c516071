import { useEffect, useState } from 'react';
import { Input, Modal, Typography } from 'antd';
import { PROJECT_NAME_MAX_LENGTH } from '@crp/contracts';
import type { PhysicalProject } from '../../api/projects';
import { renameErrorText, useProjectActions } from './useProjectActions';

export function RenameProjectModal({ project, onClose }: { project: PhysicalProject | null; onClose: () => void }) {
  const { rename } = useProjectActions();
  const [name, setName] = useState('');
  useEffect(() => {
    setName(project?.name ?? '');
    rename.reset();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [project]);

  const submit = () => {
    if (!project) return;
    rename.mutate({ oldname: project.name, name: name.trim() }, { onSuccess: onClose });
  };

  return (
    <Modal
      title="Rename project"
      open={project !== null}
      onCancel={onClose}
      onOk={submit}
      okText="Save"
      confirmLoading={rename.isPending}
      okButtonProps={{ disabled: !name.trim() || name.trim() === project?.name }}
      destroyOnHidden
    >
      <label className="crp-field-label" htmlFor="rename-input">
        Project name
      </label>
      <Input id="rename-input" value={name} onChange={(e) => setName(e.target.value)} onPressEnter={submit} autoFocus maxLength={PROJECT_NAME_MAX_LENGTH} />
      {rename.isError && (
        <Typography.Paragraph type="danger" className="crp-modal-error" data-testid="rename-error">
          {renameErrorText(rename.error)}
        </Typography.Paragraph>
      )}
    </Modal>
  );
}
