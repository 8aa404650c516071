import { useDocumentTitle } from '../lib/useDocumentTitle';
import { PageHeader } from '../ui/PageHeader';
import { CreateMapView } from '../features/maps/CreateMapView';

/** /create-map (spec 001 §2.6). */
export function CreateMapPage() {
  useDocumentTitle('Create a map');
  return (
    <div className="crp-page crp-page-wide">
      <PageHeader
        title="Map Module"
        subtitle="Mark one location by clicking the map or searching an address, choose the distance, then PROCEED to create a hazard map."
      />
      <CreateMapView />
    </div>
  );
}
