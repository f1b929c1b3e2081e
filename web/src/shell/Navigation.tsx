import { NavLink } from '@mantine/core';
import { NavLink as RouterLink, useLocation } from 'react-router';
import { type ConsoleArea, isWithinArea } from '../areas/area';

/**
 * One link per area the signed-in user may open, in the registry's order. Pointing at or tabbing
 * to a link starts loading its page, so that it is usually there by the click.
 */
export function Navigation({ areas, onNavigate }: { areas: readonly ConsoleArea[]; onNavigate: () => void }) {
  const { pathname } = useLocation();
  return areas.map((area) => (
    <NavLink
      key={area.path}
      component={RouterLink}
      to={area.path}
      label={area.label}
      active={isWithinArea(area, pathname)}
      onClick={onNavigate}
      onPointerEnter={() => void area.page.preload()}
      onFocus={() => void area.page.preload()}
    />
  ));
}
