import { useEffect, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';

/**
 * The parameters of the address as the page was opened, read once, for a page whose address carries a
 * one-time code (`?code=`, `?link=`): when one of `names` is there the page takes the whole query out
 * of the address bar at once. Replacing the entry (history.replaceState underneath) leaves no usable
 * code in the history.
 */
export function useOneTimeParams(names: readonly string[]): URLSearchParams {
  const [searchParams] = useSearchParams();
  const [snapshot] = useState(() => new URLSearchParams(searchParams));
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const hasCode = names.some((name) => searchParams.has(name));
  useEffect(() => {
    if (hasCode) void navigate(pathname, { replace: true });
  }, [hasCode, navigate, pathname]);
  return snapshot;
}
