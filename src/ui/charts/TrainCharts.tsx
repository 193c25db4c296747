import { Panel } from '../common/Panel.tsx';
import { EnergyHistogramChart, NCurveChart } from './EvalDetailCharts.tsx';
import { GradNormChart, LearningRateChart, LossChart } from './TrainSeriesCharts.tsx';
import { PairwiseChart, ValBestOfNChart } from './ValidationCharts.tsx';

/** All training and evaluation charts in one responsive grid. */
export function TrainCharts() {
  return (
    <Panel id="curves" title="Training curves" className="area-curves">
      <div className="charts">
        <LossChart />
        <ValBestOfNChart />
        <PairwiseChart />
        <NCurveChart />
        <EnergyHistogramChart />
        <LearningRateChart />
        <GradNormChart />
      </div>
    </Panel>
  );
}
