import {
  AppstoreOutlined,
  BuildOutlined,
  EditOutlined,
  GlobalOutlined,
  LineChartOutlined,
} from '@ant-design/icons';
import type { ComingSoonProps } from '../pages/ComingSoonPage';

/**
 * Signed-in routes whose page is not built yet (spec 000 §2, spec 001 §2). Each shows what it will do.
 * Replace an entry's element in the router when its page lands.
 */
export const COMING_SOON: Record<string, ComingSoonProps> = {
  '/map': {
    title: 'Map results',
    icon: <GlobalOutlined />,
    description: 'Hazard maps for a location, with street and satellite views, legends, a results table and image download.',
  },
  '/transition': {
    title: 'Transition risk',
    icon: <LineChartOutlined />,
    description: 'Create a carbon analysis of a financial portfolio: emissions, carbon intensity and carbon footprint per company, entered in a table or uploaded as CSV.',
  },
  '/transition-analysis': {
    title: 'Transition analysis',
    icon: <AppstoreOutlined />,
    description: 'Results of a carbon analysis: projected scope 1 and 2 emissions, weighted average carbon intensity and footprint.',
  },
  '/edit-transition': {
    title: 'Edit transition project',
    icon: <EditOutlined />,
    description: "Edit a carbon project's company inputs and review its outputs and portfolio totals.",
  },
  '/create-map': {
    title: 'Map Module',
    icon: <BuildOutlined />,
    description: 'Mark one location and generate hazard maps for rainfall flood, storm surge or wildfire within 1, 3 or 5 km.',
  },
};
