import { NavLink } from 'react-router';
import { ADMIN_SECTIONS } from './admin-sections';

/** The administration area's navigation, shown at the top of each of its pages. */
export function AdminNav() {
  return (
    <nav className="site-tabs" aria-label="Administration">
      {ADMIN_SECTIONS.map((section) => (
        <NavLink key={section.path} to={section.path} end>
          {section.label}
        </NavLink>
      ))}
    </nav>
  );
}
