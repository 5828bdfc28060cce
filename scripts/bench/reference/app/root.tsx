import { Outlet } from "react-router";

/** React Router's framework mode asks for a root; the reference app's two routes are resource routes and never render it. */
export default function Root() {
  return <Outlet />;
}
