import {
  AppstoreOutlined,
  EditOutlined,
  HomeOutlined,
  LineChartOutlined,
  RadarChartOutlined,
} from '@ant-design/icons';
import type { ComingSoonProps } from '../pages/ComingSoonPage';

/**
 * Signed-in routes whose page is not built yet (spec 000 §2, spec 001 §2). Each shows what it will do.
 * Replace an entry's element in the router when its page lands.
 */
export const COMING_SOON: Record<string, ComingSoonProps> = {
  '/realestate': {
    title: 'Real estate',
    icon: <HomeOutlined />,
    description: 'Select properties on a map or from a CSV file and create a property-risk project with flood and typhoon scores.',
  },
  '/realestate-dashboard': {
    title: 'Real-estate dashboard',
    icon: <RadarChartOutlined />,
    description: 'Property-risk results: summary tiles, a heat map, a risk map, and flood and typhoon score tables.',
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
};
