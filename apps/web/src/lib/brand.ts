/** Product naming and palette shared by the shell, landing and auth screens. */
export const PRODUCT_NAME = 'Climate Risk Platform';
export const PRODUCT_SHORT_NAME = 'ClimateRisk';

export { BRAND_PALETTE as palette } from '@crp/contracts';
