import { Panel } from '../common/Panel.tsx';
import { EstimateView } from './EstimateView.tsx';
import { MetricsView } from './MetricsView.tsx';
import { SavedRuns } from './SavedRuns.tsx';
import { SettingsForm } from './SettingsForm.tsx';
import { TrainControls } from './TrainControls.tsx';
import { TrainStatusView } from './TrainStatusView.tsx';

/** Settings on the left; controls, status and the headline numbers on the right. Charts are a separate panel. */
export function TrainPanel() {
  return (
    <Panel id="train" title="Train">
      <div className="train-grid">
        <div>
          <SettingsForm />
          <EstimateView />
        </div>
        <div>
          <TrainControls />
          <TrainStatusView />
          <MetricsView />
          <SavedRuns />
        </div>
      </div>
    </Panel>
  );
}
