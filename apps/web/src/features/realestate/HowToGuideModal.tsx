import { Modal, Steps } from 'antd';

/** The how-to guide of the real-estate page (the spec's how-to video, as steps: no video is bundled offline). */
export function HowToGuideModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Modal
      open={open}
      title="How to create a property-risk project"
      onCancel={onClose}
      onOk={onClose}
      okText="Got it"
      cancelButtonProps={{ style: { display: 'none' } }}
      width={640}
      data-testid="howto-modal"
    >
      <Steps
        direction="vertical"
        size="small"
        current={-1}
        items={[
          {
            title: 'Pick properties on the map',
            description:
              'On the Asset tab, click the map where a property stands: a point is added and the map zooms to street level (zoom 16). The name comes from the address; edit it and the property type in the Selected Asset table.',
          },
          {
            title: 'Or load a CSV',
            description:
              'On the Multiple Asset CSV tab, load a .csv/.xlsx file (name, lat, long, ... in the template order). Choose which optional columns to keep, then Add single rows or Add All. Clear All empties the selection.',
          },
          {
            title: 'Create Project',
            description:
              'Name the project and, if you like, change the ring (km) around each property used for the mean, min and max scores and for population and GDP. Turn on Overwrite to replace a project of the same name.',
          },
          {
            title: 'Read the Property Risk Analysis',
            description: 'Summary tiles, a heat map, a risk map, and flood and typhoon score tables with their legends and the flood mitigation guidance.',
          },
          {
            title: 'Create Portfolio (optional)',
            description:
              'Sends the same properties to the physical-risk module as a portfolio for the full dashboard (20-year expected loss, tail losses, adaptation).',
          },
        ]}
      />
    </Modal>
  );
}
