// The sidebar's agents group entries (spec 1 "Sidebar"): All Agents, then the configured
// remote agents (offline ones marked), with a filter box when more than 3 exist or a filter
// is active; Escape clears it. The list comes with the Agents page's poll (useAgents).
import { useState } from 'react';
import { NavItem } from '../shell/NavItem';
import { useAgents } from './useAgents';
import './agents.css';

export const SidebarAgentFilterAbove = 3;

export function SidebarAgents() {
  const { agents } = useAgents();
  const [filter, setFilter] = useState('');
  const configured = (agents ?? []).filter((a) => a.ID > 0 && a.Configured).sort((a, b) => a.Name.localeCompare(b.Name));
  const f = filter.trim().toLowerCase();
  const shown = f ? configured.filter((a) => a.Name.toLowerCase().includes(f)) : configured;
  return (
    <>
      <NavItem label="All Agents" to="/agents" end />
      {(configured.length > SidebarAgentFilterAbove || filter) && (
        <input
          className="sidebar-filter"
          aria-label="Filter sidebar agents"
          placeholder="Filter agents"
          value={filter}
          onChange={(e) => setFilter(e.target.value)}
          onKeyDown={(e) => e.key === 'Escape' && setFilter('')}
        />
      )}
      {shown.map((a) => (
        <NavItem key={a.ID} label={a.IsOnline ? a.Name : `${a.Name} (offline)`} to={`/agent/${a.UniqueID}`} />
      ))}
    </>
  );
}
