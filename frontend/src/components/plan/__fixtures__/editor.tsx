// The plan editor as a test opens it: /plans/new, its one template used, the debounced preview given time to go out.
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, fireEvent, render, screen } from "@testing-library/react";
import { createMemoryRouter, RouterProvider } from "react-router-dom";
import PlanEditorPage from "../../../routes/PlanEditorPage";

/** Render a new plan's editor (the API mocked by the caller), use the template offered, and wait `settleMs`. */
export async function openTemplate(settleMs = 800): Promise<void> {
  const router = createMemoryRouter([{ path: "/plans/new", element: <PlanEditorPage /> }], { initialEntries: ["/plans/new"] });
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  fireEvent.click(await screen.findByRole("button", { name: "Use this template" }));
  await act(() => new Promise((r) => setTimeout(r, settleMs)));
}
