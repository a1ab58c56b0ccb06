// A multipart upload with progress (XMLHttpRequest: fetch cannot report upload progress in
// every browser). Answers like http.ts: 200 the parsed body, 204 null, anything else a
// ServerError with status and body (the console shows the body's Error).
import { ServerError, unexpectedServerErrorMessage } from './errors';

export interface UploadProgress {
  loaded: number;
  total: number;
}

export function uploadFile<T>(url: string, field: string, file: File, onProgress: (p: UploadProgress) => void, signal?: AbortSignal): Promise<T | null> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    xhr.setRequestHeader('accept', 'application/json');
    xhr.withCredentials = true;
    xhr.upload.onprogress = (e) => onProgress({ loaded: e.loaded, total: e.lengthComputable ? e.total : file.size });
    xhr.onload = () => {
      if (xhr.status === 204) return resolve(null);
      const text = xhr.responseText;
      if (xhr.status !== 200) return reject(new ServerError(unexpectedServerErrorMessage(xhr.status, text), xhr.status, text, undefined, url));
      try {
        resolve(text ? (JSON.parse(text) as T) : null);
      } catch {
        reject(new ServerError(unexpectedServerErrorMessage(xhr.status, text), xhr.status, text, undefined, url));
      }
    };
    xhr.onerror = () => reject(new ServerError('The Hopwatch server could not be reached.', 0, '', undefined, url));
    xhr.onabort = () => reject(new ServerError('', 0, '', undefined, url));
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    const form = new FormData();
    form.append(field, file, file.name);
    xhr.send(form);
  });
}
