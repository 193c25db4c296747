import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './ui/app.css';
import { App } from './ui/App.tsx';
import { startWorker } from './ui/workerClient.ts';

// The worker starts outside React so StrictMode's double effects cannot start two engines.
startWorker();

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
