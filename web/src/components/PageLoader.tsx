import { Center, Loader } from '@mantine/core';

/** While a page's chunk or first data loads. */
export function PageLoader() {
  return (
    <Center py="xl">
      <Loader role="status" aria-label="Loading" />
    </Center>
  );
}
