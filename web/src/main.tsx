import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { consoleAreas } from './areas';
import { isWithinArea } from './areas/area';
import { reloadWhenAPartFailsToLoad } from './shell/reload-on-failed-load';

reloadWhenAPartFailsToLoad();
// The page at the tab's address loads while the session is checked, not after.
void consoleAreas.find((area) => isWithinArea(area, window.location.pathname))?.page.preload();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
