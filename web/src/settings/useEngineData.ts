// The engine pane's choices: packet types and the network interfaces of the machine that
// traces (Local Machine: the server). A load failure shows an error toast with its message.
import { useEffect, useState } from 'react';
import type { NetworkInterfaceInfo, PacketTypeInfo } from '../../../server/contract/settings';
import { errorMessage } from '../api/errors';
import { showToast } from '../state/toasts';
import * as api from './api';

export function useEngineData(enabled: boolean) {
  const [packetTypes, setPacketTypes] = useState<PacketTypeInfo[]>([]);
  const [interfaces, setInterfaces] = useState<NetworkInterfaceInfo[]>([]);
  useEffect(() => {
    if (!enabled) return;
    api.getPacketTypes().then(setPacketTypes, (e) => showToast('error', errorMessage(e)));
    api.getNetworkInterfaces().then(setInterfaces, (e) => showToast('error', errorMessage(e)));
  }, [enabled]);
  return { packetTypes, interfaces };
}
