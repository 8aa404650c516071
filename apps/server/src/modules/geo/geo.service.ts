import { forwardGeocode, GeoQueryError, indexMembers, listIndices, reverseGeocode } from '@crp/geo';
import type { AuthUser } from '../../lib/auth-context.js';
import { AppError } from '../../lib/errors.js';
import type { ProjectService } from '../projects/project.service.js';

/** Geo errors (too-short query, unknown index) as 400s naming the field. */
function geo<T>(field: string, fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof GeoQueryError) throw new AppError(400, `${field}: ${err.message}`, [{ field, message: err.message }]);
    throw err;
  }
}

/** Offline geocoding (GeoNames, Natural Earth) and the benchmark indices with their members' locations. */
export class GeoService {
  constructor(private readonly projects: Pick<ProjectService, 'createPhysical'>) {}

  reverse(latitude: number, longitude: number) {
    return geo('latitude', () => reverseGeocode(latitude, longitude));
  }

  search(q: string, limit: number) {
    return geo('q', () => forwardGeocode(q, { limit }));
  }

  /** The benchmark indices, or the members of one index with their locations. */
  indices(index: string | undefined) {
    if (!index) return { indices: listIndices() };
    return { index_name: index, members: geo('index', () => indexMembers(index)) };
  }

  /** A portfolio of an index's members at their headquarters (or listing) locations; its analysis is queued. */
  createIndexPortfolio(caller: AuthUser, indexName: string, portfolioName: string) {
    const members = geo('index_name', () => indexMembers(indexName));
    const seen = new Set<string>();
    const data = members
      .filter((m) => m.latitude !== null && m.longitude !== null)
      .map((m) => {
        let name = m.company_name;
        if (seen.has(name.toLowerCase())) name = `${name} (${m.ticker})`;
        seen.add(name.toLowerCase());
        return { name, latitude: m.latitude, longitude: m.longitude, country_code: m.country_code ?? 'NA', property_type: 'Commercial' };
      });
    return this.projects.createPhysical(
      caller,
      { portfolio_name: portfolioName, data, is_benchmark: true, index_name: indexName, portfolio_variables: undefined },
      'index',
    );
  }
}
