import { Header } from './Header.tsx';
import { ErrorBanners } from './ErrorBanners.tsx';
import { LogView } from './LogView.tsx';
import { DataPanel } from './data/DataPanel.tsx';
import { TrainPanel } from './train/TrainPanel.tsx';
import { TrainCharts } from './charts/TrainCharts.tsx';
import { InspectPanel } from './inspect/InspectPanel.tsx';
import { RerankPanel } from './rerank/RerankPanel.tsx';
import { ModelPanel } from './model/ModelPanel.tsx';
import { PicksPanel } from './picks/PicksPanel.tsx';

/**
 * One page, all panels visible in a grid (no hidden tabs): what the user works on is always on
 * screen, and the header links jump to each section.
 */
export function App() {
  return (
    <div className="app">
      <Header />
      <ErrorBanners />
      <main className="layout">
        <DataPanel />
        {/* Train and Model stack in one column so a tall Data panel does not stretch their rows. */}
        <div className="stack area-side">
          <TrainPanel />
          <ModelPanel />
        </div>
        <TrainCharts />
        <InspectPanel />
        <RerankPanel />
        <PicksPanel />
      </main>
      <LogView />
    </div>
  );
}
