/**
 * Percentages of the valuation the user gave (issue 37 item 2): the Total Asset Value and every percentage are now of
 * each asset's valuation (its construction cost where no valuation was given), not of the construction cost the damage
 * is applied to. The stored figures that hold the old denominator are brought up to date without analysing again:
 *  - the project card's total_value (projects.summary), recomputed from the assets by the rule of the engine's
 *    reportedValue (valuation, else construction cost, plus content and inventory, times ownership; negatives as 0);
 *  - the large-analysis dashboard stores (migration 0021), dropped: the dashboard builds them again when next opened.
 */
export const statements = [
  `update projects p set summary = jsonb_set(p.summary, '{total_value}', to_jsonb(coalesce(v.total, 0)))
    from (
      select project_id, sum(
        (case when valuation > 0 then valuation when construction_cost > 0 then construction_cost else 0 end
          + greatest(coalesce(content_value, 0), 0) + greatest(coalesce(yearly_inventory_value, 0), 0))
        * (case when ownership is null then 1 else least(1, greatest(0, ownership / 100)) end)
      )::double precision as total
      from assets group by project_id
    ) v
    where v.project_id = p.id and p.summary is not null`,
  `delete from dashboard_slices`,
  `delete from dashboard_stores`,
];
