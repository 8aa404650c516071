import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App as AntApp, ConfigProvider } from 'antd';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router-dom';
import { createAppRouter } from './app/router';
import { theme } from './app/theme';
import { loadClientConfig } from './lib/clientConfig';
import { createQueryClient } from './lib/queryClient';
import './styles.css';

const queryClient = createQueryClient();
const router = createAppRouter();

// The basemap setting decides every map's style, so it is known before the first map is made (one small call).
void loadClientConfig().then(() =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <ConfigProvider theme={theme}>
        <AntApp notification={{ placement: 'topRight', stack: { threshold: 4 } }}>
          <QueryClientProvider client={queryClient}>
            <RouterProvider router={router} />
          </QueryClientProvider>
        </AntApp>
      </ConfigProvider>
    </StrictMode>,
  ),
);
