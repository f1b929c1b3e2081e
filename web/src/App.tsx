import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { BrowserRouter, Route, Routes } from 'react-router';
import { consoleAreas } from './areas';
import { ConsoleAreas } from './areas/area';
import SignInPage from './auth/SignInPage';
import { SessionProvider } from './auth/session';
import { AreaRoute } from './shell/AreaRoute';
import { HomePage } from './shell/HomePage';
import { NotFoundPage } from './shell/NotFoundPage';
import { RequireSession } from './shell/RequireSession';
import { lazyPart } from './shell/reload-on-failed-load';
import { Shell } from './shell/Shell';
import { cssVariablesResolver, theme } from './theme';

const SetupPage = lazyPart(() => import('./auth/SetupPage'));

const queryClient = new QueryClient({
  defaultOptions: {
    // A refusal does not get better by asking again; the page shows it with a "Try again".
    queries: { retry: false, staleTime: 10_000 },
  },
});

/** The console: providers, then sign-in, first-start setup, and every area inside the shell. */
export function App() {
  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="auto">
      <Notifications />
      <QueryClientProvider client={queryClient}>
        <ConsoleAreas value={consoleAreas}>
          <BrowserRouter>
            <SessionProvider>
              <Routes>
                <Route path="/signin" element={<SignInPage />} />
                <Route path="/setup" element={<SetupPage />} />
                <Route element={<RequireSession />}>
                  <Route element={<Shell />}>
                    <Route index element={<HomePage />} />
                    {consoleAreas.map((area) => (
                      <Route key={area.path} path={`${area.path}/*`} element={<AreaRoute area={area} />} />
                    ))}
                    <Route path="*" element={<NotFoundPage />} />
                  </Route>
                </Route>
              </Routes>
            </SessionProvider>
          </BrowserRouter>
        </ConsoleAreas>
      </QueryClientProvider>
    </MantineProvider>
  );
}
