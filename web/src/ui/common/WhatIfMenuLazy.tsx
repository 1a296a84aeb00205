// The what-if menu, fetched when first opened: it reads the fault's delay range from the
// scenario schema, which is not in the page's first download (docs/performance.md).
import { lazy, Suspense } from 'react';
import type { WhatIfMenuProps } from './WhatIfMenu.tsx';

const WhatIfMenu = lazy(() => import('./WhatIfMenu.tsx').then((m) => ({ default: m.WhatIfMenu })));

export function WhatIfMenuLazy(props: WhatIfMenuProps) {
  return (
    <Suspense fallback={null}>
      <WhatIfMenu {...props} />
    </Suspense>
  );
}
