import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './ui/app.css';
import { App } from './ui/App.tsx';
import { startEngine } from './state/engineLink.ts';

// The worker starts outside React so StrictMode's double effects cannot start two engines.
startEngine();

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
