import {
  BuildOutlined,
  GlobalOutlined,
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
  '/create-map': {
    title: 'Map Module',
    icon: <BuildOutlined />,
    description: 'Mark one location and generate hazard maps for rainfall flood, storm surge or wildfire within 1, 3 or 5 km.',
  },
};
