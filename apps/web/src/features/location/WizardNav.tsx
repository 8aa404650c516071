import { Button, Space } from 'antd';
import { ArrowLeftOutlined, ArrowRightOutlined } from '@ant-design/icons';

/** Back / Next / Create Portfolio of the three-step /location wizards (spec 000 §4 "Wizards"). */
export function WizardNav({
  step,
  setStep,
  canNext,
  canSubmit,
  submitting,
  onSubmit,
}: {
  step: number;
  setStep: (step: number) => void;
  canNext: boolean;
  canSubmit: boolean;
  submitting: boolean;
  onSubmit: () => void;
}) {
  return (
    <div className="crp-wizard-nav">
      <Space>
        {step > 0 && (
          <Button icon={<ArrowLeftOutlined />} onClick={() => setStep(step - 1)} disabled={submitting}>
            Back
          </Button>
        )}
      </Space>
      {step < 2 ? (
        <Button type="primary" onClick={() => setStep(step + 1)} disabled={!canNext}>
          Next <ArrowRightOutlined />
        </Button>
      ) : (
        <Button type="primary" onClick={onSubmit} disabled={!canSubmit} loading={submitting}>
          Create Portfolio
        </Button>
      )}
    </div>
  );
}
