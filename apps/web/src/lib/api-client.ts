// The same-origin HTTP client for the Titan API (spec section 7). Session handling (Bearer token,
// refresh, X-Business-Code, 401 logout, 402 blocker) is added here when identity lands.
import { REQUEST_TIMEOUT_MS } from '@titan/contracts';
import axios from 'axios';

export const apiClient = axios.create({
  baseURL: '',
  timeout: REQUEST_TIMEOUT_MS,
  headers: {
    Accept: 'application/json',
    'Content-Type': 'application/json',
  },
});
