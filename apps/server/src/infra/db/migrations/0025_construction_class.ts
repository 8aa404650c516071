/**
 * Construction class of an asset (issue 33 item 6): concrete, steel, masonry, wood or manufactured (CONSTRUCTION_CLASSES
 * of @crp/contracts); null = unknown. Typhoon wind then uses the FEMA Hazus curve of the building type
 * (docs/methodology/engine.md §1.3a) instead of the regional Emanuel curve.
 */
export const statements = [
  `alter table assets add column construction text
    check (construction in ('concrete', 'steel', 'masonry', 'wood', 'manufactured'))`,
];
