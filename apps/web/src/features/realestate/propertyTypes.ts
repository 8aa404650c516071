/** Building property types offered for a real-estate location (labels the engine's vulnerability table knows). */
export const REAL_ESTATE_PROPERTY_TYPES = [
  'Residential', 'Apartments', 'Home', 'Hotel', 'Commercial', 'Office', 'Retail', 'Shopping Mall', 'Warehouse', 'Data Centre', 'Healthcare',
  'Education', 'School', 'University', 'Government', 'Religious', 'Parking', 'Industrial', 'Manufacture',
] as const;
