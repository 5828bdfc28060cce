import { data } from "react-router";

/** Any path no other route claims renders the friendly 404 of the root error boundary. */
export const loader = () => {
  throw data(null, { status: 404 });
};

export default function NotFound() {
  return null;
}
