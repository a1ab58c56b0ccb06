// Route elements of spec 2 "Summary routes": /summary/{id} (and the /summarys/{id} alias)
// shows the summary screen; /summary and /summarys list the summaries (reached after a
// summary is deleted).
import { useParams } from 'react-router-dom';
import { SummaryListPage } from './SummaryListPage';
import { SummaryWindow } from './SummaryWindow';

export function SummaryPage() {
  const { summaryUniqueID, summaryId } = useParams();
  const id = summaryUniqueID ?? summaryId;
  if (!id) return <SummaryListPage />;
  return <SummaryWindow key={id} summaryId={id} />;
}
